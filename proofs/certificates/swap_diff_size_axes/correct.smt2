; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2}
;   source f32[{x}16, {y}8]
;   all_to_all(src=0, dst=1, axes={x:(2)2})
;   collective_permute(to=f32[{y}16, {x}8])
;   target f32[{y}16, {x}8]
; 
(set-info :status unsat)
(declare-fun dev_x () Int)
(declare-fun dev_y () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun h1_lo () Int)
(declare-fun h1_hi () Int)
(assert
 (let (($x7 (>= dev_x 0)))
 (and $x7 (< dev_x 4))))
(assert
 (let (($x12 (>= dev_y 0)))
 (and $x12 (< dev_y 2))))
(assert
 (let (($x17 (>= dev_l0 0)))
 (and $x17 (< dev_l0 8))))
(assert
 (let (($x22 (>= dev_l1 0)))
 (and $x22 (< dev_l1 2))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (= dev_x (+ (* h0_hi 2) h0_lo)))
(assert
 (and (and (and (>= h1_hi 0) (< h1_hi 2)) (>= h1_lo 0)) (< h1_lo 4)))
(assert
 (= dev_l0 (+ (* h1_hi 4) h1_lo)))
(assert
 (let (($x58 (not (and (= dev_l1 dev_l1) (= h0_lo h0_lo) (= h0_hi h0_hi)))))
 (let (($x53 (not (and (= h1_lo h1_lo) (= h1_hi h1_hi) (= dev_y dev_y)))))
 (or $x53 $x58))))
(check-sat)
