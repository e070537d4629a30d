; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:2, y:3}
;   source f32[{x}12, 12]
;   all_slice(dim=0, axes={y})
;   collective_permute(to=f32[{y,x}12, 12])
;   all_gather(dim=0, axes={x})
;   target f32[{y}12, 12]
; 
(set-info :status unsat)
(declare-fun dev_x () Int)
(declare-fun dev_y () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(assert
 (let (($x7 (>= dev_x 0)))
 (and $x7 (< dev_x 2))))
(assert
 (let (($x12 (>= dev_y 0)))
 (and $x12 (< dev_y 3))))
(assert
 (let (($x17 (>= dev_l0 0)))
 (and $x17 (< dev_l0 4))))
(assert
 (let (($x22 (>= dev_l1 0)))
 (and $x22 (< dev_l1 12))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (= dev_l0 (+ (* h0_hi 2) h0_lo)))
(assert
 (let (($x52 (not (and (= dev_l1 dev_l1)))))
 (let ((?x40 (+ (* dev_y 2) h0_hi)))
 (let ((?x42 (mod ?x40 3)))
 (let ((?x45 (+ (* (div ?x40 3) 3) ?x42)))
 (let (($x50 (not (= (+ (* ?x45 2) h0_lo) (+ (* dev_y 4) dev_l0)))))
 (or $x50 $x52)))))))
(check-sat)
