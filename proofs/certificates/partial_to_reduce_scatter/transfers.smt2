; redist certificate: property 'transfers' is refuted; `z3 transfers.smt2` must print sat.
; The query is the negation of the property for the plan:
;   mesh {a:2, b:2, c:2}
;   source f32[16, 16] sum{a,b,c}
;   reduce_scatter(dim=0, axes={b,a,c})
;   all_gather(dim=0, axes={a,c})
;   target f32[{b}16, 16]
(set-logic ALL)
(declare-fun h_a () Int)
(declare-fun h_b () Int)
(declare-fun h_c () Int)
(declare-fun h0_a () Int)
(declare-fun h0_b () Int)
(declare-fun h0_c () Int)
(declare-fun h_g0 () Int)
(declare-fun h_l0 () Int)
(declare-fun h_g1 () Int)
(declare-fun h_l1 () Int)
(declare-fun h0_l0 () Int)
(declare-fun h0_l1 () Int)
(assert (! (and (>= h_a 0) (< h_a 2) (>= h_b 0) (< h_b 2) (>= h_c 0) (< h_c 2) (>= h0_a 0) (< h0_a 2) (>= h0_b 0) (< h0_b 2) (>= h0_c 0) (< h0_c 2)) :named domain))
(assert (! (and (= h_g0 (+ (* h_b 8) h_l0)) (= h_g1 (+ (* 0 16) h_l1))) :named target_type))
(assert (! (let ((a!1 (+ (* (+ (* h0_a 2) h0_c) 2) h0_l0))) (and (= h0_b h_b) (= h_l0 a!1) (>= h0_l0 0) (< h0_l0 2) (= h0_l1 h_l1))) :named step_1))
(assert (! (let ((a!1 (+ (* (+ (* h_b 2) h_a) 2) h_c))) (let ((a!2 (and (>= h_l0 0) (< h_l0 8) (>= h_l1 0) (< h_l1 16) (<= (* a!1 2) h_g0) (< h_g0 (+ (* a!1 2) 2)) (<= (* 0 16) h_g1) (< h_g1 (+ (* 0 16) 16)) (not (and (= h0_a h_a) (= h0_b h_b) (= h0_c h_c)))))) (and true (or a!2)))) :named goal))
(check-sat)
