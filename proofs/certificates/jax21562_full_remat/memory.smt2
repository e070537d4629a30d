; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2}
;   source f32[{y}16, 16, {x}16]
;   all_to_all(src=2, dst=1, axes={x}; src=0, dst=1, axes={y})
;   target f32[16, {x,y}16, 16]
(set-logic ALL)
(declare-fun s0_L0 () Int)
(declare-fun s0_L1 () Int)
(declare-fun s0_L2 () Int)
(declare-fun s0_bytes () Int)
(declare-fun s1_L0 () Int)
(declare-fun s1_L1 () Int)
(declare-fun s1_L2 () Int)
(declare-fun s1_bytes () Int)
(declare-fun t_L0 () Int)
(declare-fun t_L1 () Int)
(declare-fun t_L2 () Int)
(declare-fun t_bytes () Int)
(declare-fun bound () Int)
(assert (! (and (< (* (* 1 2) (- s0_L0 1)) 16) (<= 16 (* (* 1 2) s0_L0)) (< (* 1 (- s0_L1 1)) 16) (<= 16 (* 1 s0_L1)) (< (* (* 1 4) (- s0_L2 1)) 16) (<= 16 (* (* 1 4) s0_L2)) (= s0_bytes (* 4 s0_L0 s0_L1 s0_L2))) :named source_type))
(assert (! (and (< (* 1 (- s1_L0 1)) 16) (<= 16 (* 1 s1_L0)) (< (* (* 1 4 2) (- s1_L1 1)) 16) (<= 16 (* (* 1 4 2) s1_L1)) (< (* 1 (- s1_L2 1)) 16) (<= 16 (* 1 s1_L2)) (= s1_bytes (* 4 s1_L0 s1_L1 s1_L2))) :named step_1))
(assert (! (and (< (* 1 (- t_L0 1)) 16) (<= 16 (* 1 t_L0)) (< (* (* 1 4 2) (- t_L1 1)) 16) (<= 16 (* (* 1 4 2) t_L1)) (< (* 1 (- t_L2 1)) 16) (<= 16 (* 1 t_L2)) (= t_bytes (* 4 t_L0 t_L1 t_L2))) :named target_type))
(assert (! (and (= bound (ite (>= s0_bytes t_bytes) s0_bytes t_bytes))) :named bound_definition))
(assert (! (and true (or (> s0_bytes bound) (> s1_bytes bound))) :named goal))
(check-sat)
