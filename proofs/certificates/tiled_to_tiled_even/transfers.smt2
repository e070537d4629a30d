; redist certificate: property 'transfers' is proved; `z3 transfers.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:8}
;   source f32[{x}16, 8]
;   all_to_all(src=0, dst=1, axes={x})
;   target f32[16, {x}8]
; 
(set-info :status unsat)
(declare-fun held_x () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(assert
 (let (($x7 (>= held_x 0)))
 (and $x7 (< held_x 8))))
(assert
 (let (($x12 (>= held_l0 0)))
 (and $x12 (< held_l0 16))))
(assert
 (let (($x17 (>= held_l1 0)))
 (and $x17 (< held_l1 1))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 8)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (= held_l0 (+ (* h0_hi 2) h0_lo)))
(assert
 (let (($x34 (= h0_hi held_x)))
 (let (($x35 (and $x34)))
 (let (($x37 (not $x35)))
 (let (($x39 (and (and $x35 and) $x37)))
 (or $x39))))))
(check-sat)
