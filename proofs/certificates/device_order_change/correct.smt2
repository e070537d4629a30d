; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:2, y:2}
;   source f32[{x}8, {y}8]
;   collective_permute(to=f32[{x}8, {y}8], mesh={x:2, y:2} devices=[0,2,1,3])
;   all_gather(dim=1, axes={y})
;   target f32[{x}8, 8]
; 
(set-info :status unsat)
(declare-fun dev_x () Int)
(declare-fun dev_y () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun order0 (Int) Int)
(assert
 (let (($x7 (>= dev_x 0)))
 (and $x7 (< dev_x 2))))
(assert
 (let (($x12 (>= dev_y 0)))
 (and $x12 (< dev_y 2))))
(assert
 (let (($x16 (>= dev_l0 0)))
 (and $x16 (< dev_l0 4))))
(assert
 (let (($x21 (>= dev_l1 0)))
 (and $x21 (< dev_l1 8))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 4)))
(assert
 (= dev_l1 (+ (* h0_hi 4) h0_lo)))
(assert
 (= (order0 0) 0))
(assert
 (= (order0 1) 2))
(assert
 (= (order0 2) 1))
(assert
 (= (order0 3) 3))
(assert
 (let (($x54 (not (and (= h0_lo h0_lo) (= h0_hi h0_hi)))))
 (let (($x50 (not (and (= dev_l0 dev_l0) (= dev_x dev_x)))))
 (or $x50 $x54))))
(check-sat)
