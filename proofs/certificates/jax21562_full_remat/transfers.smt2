; redist certificate: property 'transfers' is proved; `z3 transfers.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2}
;   source f32[{y}16, 16, {x}16]
;   all_to_all(src=2, dst=1, axes={x}; src=0, dst=1, axes={y})
;   target f32[16, {x,y}16, 16]
(set-logic ALL)
(declare-fun h_x () Int)
(declare-fun h_y () Int)
(declare-fun h0_x () Int)
(declare-fun h0_y () Int)
(declare-fun h_g0 () Int)
(declare-fun h_l0 () Int)
(declare-fun h_g1 () Int)
(declare-fun h_l1 () Int)
(declare-fun h_g2 () Int)
(declare-fun h_l2 () Int)
(declare-fun h0_l0 () Int)
(declare-fun h0_l1 () Int)
(declare-fun h0_l2 () Int)
(assert (! (and (>= h_x 0) (< h_x 4) (>= h_y 0) (< h_y 2) (>= h0_x 0) (< h0_x 4) (>= h0_y 0) (< h0_y 2)) :named domain))
(assert (! (let ((a!1 (+ (* (+ (* h_x 2) h_y) 2) h_l1))) (and (= h_g0 (+ (* 0 16) h_l0)) (= h_g1 a!1) (= h_g2 (+ (* 0 16) h_l2)))) :named target_type))
(assert (! (let ((a!1 (+ (* (+ (* h_x 2) h_y) 2) h_l1))) (and true (= h_l0 (+ (* h0_y 8) h0_l0)) (>= h0_l0 0) (< h0_l0 8) (= h0_l1 a!1) (= h_l2 (+ (* h0_x 4) h0_l2)) (>= h0_l2 0) (< h0_l2 4))) :named step_1))
(assert (! (let ((a!1 (and (>= h_l0 0) (< h_l0 16) (>= h_l1 0) (< h_l1 2) (>= h_l2 0) (< h_l2 16) (<= (* h_y 8) h_g0) (< h_g0 (+ (* h_y 8) 8)) (<= (* 0 16) h_g1) (< h_g1 (+ (* 0 16) 16)) (<= (* h_x 4) h_g2) (< h_g2 (+ (* h_x 4) 4)) (not (and (= h0_x h_x) (= h0_y h_y)))))) (and true (or a!1))) :named goal))
(check-sat)
