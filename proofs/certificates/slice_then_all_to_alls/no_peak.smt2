; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2, z:4}
;   source f32[16, {y,z}8, 8]
;   all_slice(dim=0, axes={x})
;   all_to_all(src=1, dst=0, axes={z})
;   all_to_all(src=1, dst=2, axes={y})
;   target f32[{x,z}16, 8, {y}8]
; 
(set-info :status unsat)
(declare-fun a2_x () Int)
(declare-fun a2_y () Int)
(declare-fun a2_z () Int)
(declare-fun a2_l0 () Int)
(declare-fun a2_l1 () Int)
(declare-fun a2_l2 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(assert
 (let (($x7 (>= a2_x 0)))
 (and $x7 (< a2_x 4))))
(assert
 (let (($x12 (>= a2_y 0)))
 (and $x12 (< a2_y 2))))
(assert
 (let (($x17 (>= a2_z 0)))
 (and $x17 (< a2_z 4))))
(assert
 (let (($x21 (>= a2_l0 0)))
 (and $x21 (< a2_l0 1))))
(assert
 (let (($x26 (>= a2_l1 0)))
 (and $x26 (< a2_l1 4))))
(assert
 (let (($x30 (>= a2_l2 0)))
 (and $x30 (< a2_l2 8))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 4)))
(assert
 (= a2_l2 (+ (* h0_hi 4) h0_lo)))
(assert
 (let (($x54 (and true false)))
 (let (($x37 (and true (not (and (= a2_l1 a2_z))))))
 (let (($x56 (and $x37 $x54)))
 (or $x56)))))
(check-sat)
