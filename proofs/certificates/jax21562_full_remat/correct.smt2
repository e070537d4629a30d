; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2}
;   source f32[{y}16, 16, {x}16]
;   all_to_all(src=2, dst=1, axes={x}; src=0, dst=1, axes={y})
;   target f32[16, {x,y}16, 16]
(set-logic ALL)
(declare-fun t_x () Int)
(declare-fun t_y () Int)
(declare-fun e0_x () Int)
(declare-fun e0_y () Int)
(declare-fun t_l0 () Int)
(declare-fun e0_l0 () Int)
(declare-fun e0_l1 () Int)
(declare-fun t_l1 () Int)
(declare-fun t_l2 () Int)
(declare-fun e0_l2 () Int)
(declare-fun e_src_g0 () Int)
(declare-fun e_src_g1 () Int)
(declare-fun e_src_g2 () Int)
(declare-fun t_g0 () Int)
(declare-fun t_g1 () Int)
(declare-fun t_g2 () Int)
(assert (! (and (>= t_x 0) (< t_x 4) (>= t_y 0) (< t_y 2) (>= e0_x 0) (< e0_x 4) (>= e0_y 0) (< e0_y 2)) :named domain))
(assert (! (let ((a!1 (+ (* (+ (* t_x 2) t_y) 2) t_l1))) (and true (= t_l0 (+ (* e0_y 8) e0_l0)) (>= e0_l0 0) (< e0_l0 8) (= e0_l1 a!1) (= t_l2 (+ (* e0_x 4) e0_l2)) (>= e0_l2 0) (< e0_l2 4))) :named step_1))
(assert (! (and (= e_src_g0 (+ (* e0_y 8) e0_l0)) (= e_src_g1 (+ (* 0 16) e0_l1)) (= e_src_g2 (+ (* e0_x 4) e0_l2))) :named source_type))
(assert (! (let ((a!1 (+ (* (+ (* t_x 2) t_y) 2) t_l1))) (and (= t_g0 (+ (* 0 16) t_l0)) (= t_g1 a!1) (= t_g2 (+ (* 0 16) t_l2)))) :named target_type))
(assert (! (let ((a!1 (or (not (and (>= e0_l0 0) (< e0_l0 8) (>= e0_l1 0) (< e0_l1 16) (>= e0_l2 0) (< e0_l2 4))) (distinct e_src_g0 t_g0) (distinct e_src_g1 t_g1) (distinct e_src_g2 t_g2)))) (and (>= t_l0 0) (< t_l0 16) (>= t_l1 0) (< t_l1 2) (>= t_l2 0) (< t_l2 16) (< t_g0 16) (< t_g1 16) (< t_g2 16) a!1)) :named goal))
(check-sat)
