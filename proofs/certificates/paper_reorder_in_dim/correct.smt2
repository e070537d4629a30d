; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:4, z:16}
;   source f32[{x,y}512, 128]
;   collective_permute(to=f32[{y,x}512, 128])
;   target f32[{y,x}512, 128]
(set-logic ALL)
(declare-fun t_x () Int)
(declare-fun t_y () Int)
(declare-fun t_z () Int)
(declare-fun e0_x () Int)
(declare-fun e0_y () Int)
(declare-fun e0_z () Int)
(declare-fun e0_l0 () Int)
(declare-fun t_l0 () Int)
(declare-fun e0_l1 () Int)
(declare-fun t_l1 () Int)
(declare-fun e_src_g0 () Int)
(declare-fun e_src_g1 () Int)
(declare-fun t_g0 () Int)
(declare-fun t_g1 () Int)
(assert (! (and (>= t_x 0) (< t_x 4) (>= t_y 0) (< t_y 4) (>= t_z 0) (< t_z 16) (>= e0_x 0) (< e0_x 4) (>= e0_y 0) (< e0_y 4) (>= e0_z 0) (< e0_z 16)) :named domain))
(assert (! (and true (= (+ (* e0_x 4) e0_y) (+ (* t_y 4) t_x)) (= e0_z t_z) (= e0_l0 t_l0) (= e0_l1 t_l1)) :named step_1))
(assert (! (let ((a!1 (+ (* (+ (* e0_x 4) e0_y) 32) e0_l0))) (and (= e_src_g0 a!1) (= e_src_g1 (+ (* 0 128) e0_l1)))) :named source_type))
(assert (! (let ((a!1 (+ (* (+ (* t_y 4) t_x) 32) t_l0))) (and (= t_g0 a!1) (= t_g1 (+ (* 0 128) t_l1)))) :named target_type))
(assert (! (let ((a!1 (or (not (and (>= e0_l0 0) (< e0_l0 32) (>= e0_l1 0) (< e0_l1 128))) (distinct e_src_g0 t_g0) (distinct e_src_g1 t_g1)))) (and (>= t_l0 0) (< t_l0 32) (>= t_l1 0) (< t_l1 128) (< t_g0 512) (< t_g1 128) a!1)) :named goal))
(check-sat)
