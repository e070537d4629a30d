; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:8}
;   source f32[{x}16, 8]
;   all_to_all(src=0, dst=1, axes={x})
;   target f32[16, {x}8]
(set-logic ALL)
(declare-fun t_x () Int)
(declare-fun e0_x () Int)
(declare-fun t_l0 () Int)
(declare-fun e0_l0 () Int)
(declare-fun e0_l1 () Int)
(declare-fun t_l1 () Int)
(declare-fun e_src_g0 () Int)
(declare-fun e_src_g1 () Int)
(declare-fun t_g0 () Int)
(declare-fun t_g1 () Int)
(assert (! (and (>= t_x 0) (< t_x 8) (>= e0_x 0) (< e0_x 8)) :named domain))
(assert (! (and true (= t_l0 (+ (* e0_x 2) e0_l0)) (>= e0_l0 0) (< e0_l0 2) (= e0_l1 (+ (* t_x 1) t_l1))) :named step_1))
(assert (! (and (= e_src_g0 (+ (* e0_x 2) e0_l0)) (= e_src_g1 (+ (* 0 8) e0_l1))) :named source_type))
(assert (! (and (= t_g0 (+ (* 0 16) t_l0)) (= t_g1 (+ (* t_x 1) t_l1))) :named target_type))
(assert (! (let ((a!1 (or (not (and (>= e0_l0 0) (< e0_l0 2) (>= e0_l1 0) (< e0_l1 8))) (distinct e_src_g0 t_g0) (distinct e_src_g1 t_g1)))) (and (>= t_l0 0) (< t_l0 16) (>= t_l1 0) (< t_l1 1) (< t_g0 16) (< t_g1 8) a!1)) :named goal))
(check-sat)
