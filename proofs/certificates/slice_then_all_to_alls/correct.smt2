; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2, z:4}
;   source f32[16, {y,z}8, 8]
;   all_slice(dim=0, axes={x})
;   all_to_all(src=1, dst=0, axes={z})
;   all_to_all(src=1, dst=2, axes={y})
;   target f32[{x,z}16, 8, {y}8]
; 
(set-info :status unsat)
(declare-fun dev_x () Int)
(declare-fun dev_y () Int)
(declare-fun dev_z () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(declare-fun dev_l2 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(assert
 (let (($x7 (>= dev_x 0)))
 (and $x7 (< dev_x 4))))
(assert
 (let (($x12 (>= dev_y 0)))
 (and $x12 (< dev_y 2))))
(assert
 (let (($x17 (>= dev_z 0)))
 (and $x17 (< dev_z 4))))
(assert
 (let (($x21 (>= dev_l0 0)))
 (and $x21 (< dev_l0 1))))
(assert
 (let (($x26 (>= dev_l1 0)))
 (and $x26 (< dev_l1 8))))
(assert
 (let (($x31 (>= dev_l2 0)))
 (and $x31 (< dev_l2 4))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 4)))
(assert
 (= dev_l1 (+ (* h0_hi 4) h0_lo)))
(assert
 (let (($x58 (not (and (= dev_l2 dev_l2) (= dev_y dev_y)))))
 (let (($x54 (not (and (= h0_lo h0_lo) (= h0_hi h0_hi)))))
 (let (($x50 (not (and (= dev_l0 dev_l0) (= dev_z dev_z) (= dev_x dev_x)))))
 (or $x50 $x54 $x58)))))
(check-sat)
