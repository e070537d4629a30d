; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:2, y:2}
;   source f32[{x,y}5, 3]
;   all_gather(dim=0, axes={x,y})
;   target f32[5, 3]
(set-logic ALL)
(declare-fun t_x () Int)
(declare-fun t_y () Int)
(declare-fun e0_x () Int)
(declare-fun e0_y () Int)
(declare-fun t_l0 () Int)
(declare-fun e0_l0 () Int)
(declare-fun e0_l1 () Int)
(declare-fun t_l1 () Int)
(declare-fun e_src_g0 () Int)
(declare-fun e_src_g1 () Int)
(declare-fun t_g0 () Int)
(declare-fun t_g1 () Int)
(assert (! (and (>= t_x 0) (< t_x 2) (>= t_y 0) (< t_y 2) (>= e0_x 0) (< e0_x 2) (>= e0_y 0) (< e0_y 2)) :named domain))
(assert (! (let ((a!1 (+ (* (+ (* e0_x 2) e0_y) 2) e0_l0))) (and true (= t_l0 a!1) (>= e0_l0 0) (< e0_l0 2) (= e0_l1 t_l1))) :named step_1))
(assert (! (let ((a!1 (+ (* (+ (* e0_x 2) e0_y) 2) e0_l0))) (and (= e_src_g0 a!1) (= e_src_g1 (+ (* 0 3) e0_l1)))) :named source_type))
(assert (! (and (= t_g0 (+ (* 0 5) t_l0)) (= t_g1 (+ (* 0 3) t_l1))) :named target_type))
(assert (! (let ((a!1 (or (not (and (>= e0_l0 0) (< e0_l0 2) (>= e0_l1 0) (< e0_l1 3))) (distinct e_src_g0 t_g0) (distinct e_src_g1 t_g1)))) (and (>= t_l0 0) (< t_l0 5) (>= t_l1 0) (< t_l1 3) (< t_g0 5) (< t_g1 3) a!1)) :named goal))
(check-sat)
