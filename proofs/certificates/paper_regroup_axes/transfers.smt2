; redist certificate: property 'transfers' is proved; `z3 transfers.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:4, z:16}
;   source f32[{x,y}512, 128]
;   collective_permute(to=f32[{z}512, 128])
;   target f32[{z}512, 128]
(set-logic ALL)
(declare-fun h_x () Int)
(declare-fun h_y () Int)
(declare-fun h_z () Int)
(declare-fun h0_x () Int)
(declare-fun h0_y () Int)
(declare-fun h0_z () Int)
(declare-fun h_g0 () Int)
(declare-fun h_l0 () Int)
(declare-fun h_g1 () Int)
(declare-fun h_l1 () Int)
(declare-fun h0_l0 () Int)
(declare-fun h0_l1 () Int)
(assert (! (and (>= h_x 0) (< h_x 4) (>= h_y 0) (< h_y 4) (>= h_z 0) (< h_z 16) (>= h0_x 0) (< h0_x 4) (>= h0_y 0) (< h0_y 4) (>= h0_z 0) (< h0_z 16)) :named domain))
(assert (! (and (= h_g0 (+ (* h_z 32) h_l0)) (= h_g1 (+ (* 0 128) h_l1))) :named target_type))
(assert (! (and true (= (+ (* h0_x 4) h0_y) h_z) (= h0_z (+ (* h_x 4) h_y)) true (= h0_l0 h_l0) (= h0_l1 h_l1)) :named step_1))
(assert (! (let ((a!1 (<= (* (+ (* h_x 4) h_y) 32) h_g0)) (a!2 (+ (* (+ (* h_x 4) h_y) 32) 32))) (let ((a!3 (and (>= h_l0 0) (< h_l0 32) (>= h_l1 0) (< h_l1 128) a!1 (< h_g0 a!2) (<= (* 0 128) h_g1) (< h_g1 (+ (* 0 128) 128)) (not (and (= h0_x h_x) (= h0_y h_y) (= h0_z h_z)))))) (and true (or a!3)))) :named goal))
(check-sat)
