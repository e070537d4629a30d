; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x1:2, x2:2, y1:3, y2:2}
;   source f32[{x2,x1}12, {y2,y1}12]
;   all_to_all(src=1, dst=0, axes={y1})
;   collective_permute(to=f32[{y2,y1,x1}12, {x2}12])
;   all_to_all(src=0, dst=1, axes={x1})
;   target f32[{y2,y1}12, {x2,x1}12]
; 
(set-info :status unsat)
(declare-fun dev_x1 () Int)
(declare-fun dev_x2 () Int)
(declare-fun dev_y1 () Int)
(declare-fun dev_y2 () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(assert
 (let (($x7 (>= dev_x1 0)))
 (and $x7 (< dev_x1 2))))
(assert
 (let (($x12 (>= dev_x2 0)))
 (and $x12 (< dev_x2 2))))
(assert
 (let (($x16 (>= dev_y1 0)))
 (and $x16 (< dev_y1 3))))
(assert
 (let (($x21 (>= dev_y2 0)))
 (and $x21 (< dev_y2 2))))
(assert
 (let (($x25 (>= dev_l0 0)))
 (and $x25 (< dev_l0 2))))
(assert
 (let (($x29 (>= dev_l1 0)))
 (and $x29 (< dev_l1 3))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (let ((?x49 (+ (* h0_hi 2) h0_lo)))
 (let ((?x36 (+ (* (+ (* dev_y2 3) dev_y1) 2) dev_l0)))
 (let ((?x37 (div ?x36 3)))
 (= ?x37 ?x49)))))
(assert
 (let ((?x51 (+ (* dev_x1 3) dev_l1)))
 (let ((?x53 (mod ?x51 2)))
 (let (($x66 (= (+ (* (+ (* dev_x2 3) (div ?x51 2)) 2) ?x53) (+ (* (+ (* dev_x2 2) dev_x1) 3) dev_l1))))
 (let (($x67 (not $x66)))
 (let ((?x36 (+ (* (+ (* dev_y2 3) dev_y1) 2) dev_l0)))
 (let (($x55 (= (+ (* (+ (* h0_hi 2) h0_lo) 3) (mod ?x36 3)) ?x36)))
 (let (($x57 (not $x55)))
 (or $x57 $x67)))))))))
(check-sat)
