; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2}
;   source f32[{y}16, 16, {x}16]
;   all_to_all(src=2, dst=1, axes={x})
;   all_to_all(src=0, dst=1, axes={y})
;   target f32[16, {x,y}16, 16]
; 
(set-info :status unsat)
(declare-fun dev_x () Int)
(declare-fun dev_y () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(declare-fun dev_l2 () Int)
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
 (and $x17 (< dev_l0 16))))
(assert
 (let (($x22 (>= dev_l1 0)))
 (and $x22 (< dev_l1 2))))
(assert
 (let (($x26 (>= dev_l2 0)))
 (and $x26 (< dev_l2 16))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 8)))
(assert
 (= dev_l0 (+ (* h0_hi 8) h0_lo)))
(assert
 (and (and (and (>= h1_hi 0) (< h1_hi 4)) (>= h1_lo 0)) (< h1_lo 4)))
(assert
 (= dev_l2 (+ (* h1_hi 4) h1_lo)))
(assert
 (let (($x66 (not (and (= h1_lo h1_lo) (= h1_hi h1_hi)))))
 (let (($x62 (not (and (= dev_l1 dev_l1) (= dev_y dev_y) (= dev_x dev_x)))))
 (let (($x56 (not (and (= h0_lo h0_lo) (= h0_hi h0_hi)))))
 (or $x56 $x62 $x66)))))
(check-sat)
