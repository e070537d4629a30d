; redist certificate: property 'transfers' is proved; `z3 transfers.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:8}
;   source f32[{x}16, 8]
;   all_to_all(src=0, dst=1, axes={x})
;   target f32[16, {x}8]
(set-logic ALL)
(declare-fun h_x () Int)
(declare-fun h0_x () Int)
(declare-fun h_g0 () Int)
(declare-fun h_l0 () Int)
(declare-fun h_g1 () Int)
(declare-fun h_l1 () Int)
(declare-fun h0_l0 () Int)
(declare-fun h0_l1 () Int)
(assert (! (and (>= h_x 0) (< h_x 8) (>= h0_x 0) (< h0_x 8)) :named domain))
(assert (! (and (= h_g0 (+ (* 0 16) h_l0)) (= h_g1 (+ (* h_x 1) h_l1))) :named target_type))
(assert (! (and true (= h_l0 (+ (* h0_x 2) h0_l0)) (>= h0_l0 0) (< h0_l0 2) (= h0_l1 (+ (* h_x 1) h_l1))) :named step_1))
(assert (! (let ((a!1 (and (>= h_l0 0) (< h_l0 16) (>= h_l1 0) (< h_l1 1) (<= (* h_x 2) h_g0) (< h_g0 (+ (* h_x 2) 2)) (<= (* 0 8) h_g1) (< h_g1 (+ (* 0 8) 8)) (not (and (= h0_x h_x)))))) (and true (or a!1))) :named goal))
(check-sat)
