; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:2, b:2}
;   source f32[{a}16, {b}16]
;   collective_permute(to=f32[{b}16, {a}16])
;   target f32[{b}16, {a}16]
(set-logic ALL)
(declare-fun t_a () Int)
(declare-fun t_b () Int)
(declare-fun e0_a () Int)
(declare-fun e0_b () Int)
(declare-fun e0_l0 () Int)
(declare-fun t_l0 () Int)
(declare-fun e0_l1 () Int)
(declare-fun t_l1 () Int)
(declare-fun e_src_g0 () Int)
(declare-fun e_src_g1 () Int)
(declare-fun t_g0 () Int)
(declare-fun t_g1 () Int)
(assert (! (and (>= t_a 0) (< t_a 2) (>= t_b 0) (< t_b 2) (>= e0_a 0) (< e0_a 2) (>= e0_b 0) (< e0_b 2)) :named domain))
(assert (! (and true (= e0_a t_b) (= e0_b t_a) true (= e0_l0 t_l0) (= e0_l1 t_l1)) :named step_1))
(assert (! (and (= e_src_g0 (+ (* e0_a 8) e0_l0)) (= e_src_g1 (+ (* e0_b 8) e0_l1))) :named source_type))
(assert (! (and (= t_g0 (+ (* t_b 8) t_l0)) (= t_g1 (+ (* t_a 8) t_l1))) :named target_type))
(assert (! (let ((a!1 (or (not (and (>= e0_l0 0) (< e0_l0 8) (>= e0_l1 0) (< e0_l1 8))) (distinct e_src_g0 t_g0) (distinct e_src_g1 t_g1)))) (and (>= t_l0 0) (< t_l0 8) (>= t_l1 0) (< t_l1 8) (< t_g0 16) (< t_g1 16) a!1)) :named goal))
(check-sat)
