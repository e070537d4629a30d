; redist certificate: property 'transfers' is proved; `z3 transfers.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:2, b:2}
;   source f32[{a}16, {b}16]
;   collective_permute(to=f32[{b}16, {a}16])
;   target f32[{b}16, {a}16]
(set-logic ALL)
(declare-fun h_a () Int)
(declare-fun h_b () Int)
(declare-fun h0_a () Int)
(declare-fun h0_b () Int)
(declare-fun h_g0 () Int)
(declare-fun h_l0 () Int)
(declare-fun h_g1 () Int)
(declare-fun h_l1 () Int)
(declare-fun h0_l0 () Int)
(declare-fun h0_l1 () Int)
(assert (! (and (>= h_a 0) (< h_a 2) (>= h_b 0) (< h_b 2) (>= h0_a 0) (< h0_a 2) (>= h0_b 0) (< h0_b 2)) :named domain))
(assert (! (and (= h_g0 (+ (* h_b 8) h_l0)) (= h_g1 (+ (* h_a 8) h_l1))) :named target_type))
(assert (! (and true (= h0_a h_b) (= h0_b h_a) true (= h0_l0 h_l0) (= h0_l1 h_l1)) :named step_1))
(assert (! (let ((a!1 (and (>= h_l0 0) (< h_l0 8) (>= h_l1 0) (< h_l1 8) (<= (* h_a 8) h_g0) (< h_g0 (+ (* h_a 8) 8)) (<= (* h_b 8) h_g1) (< h_g1 (+ (* h_b 8) 8)) (not (and (= h0_a h_a) (= h0_b h_b)))))) (and true (or a!1))) :named goal))
(check-sat)
