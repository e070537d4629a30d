; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:2, b:2}
;   source f32[{a}16, {b}16]
;   collective_permute(to=f32[{b}16, {a}16])
;   target f32[{b}16, {a}16]
; 
(set-info :status unsat)
(declare-fun dev_a () Int)
(declare-fun dev_b () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(assert
 (let (($x7 (>= dev_a 0)))
 (and $x7 (< dev_a 2))))
(assert
 (let (($x12 (>= dev_b 0)))
 (and $x12 (< dev_b 2))))
(assert
 (let (($x16 (>= dev_l0 0)))
 (and $x16 (< dev_l0 8))))
(assert
 (let (($x21 (>= dev_l1 0)))
 (and $x21 (< dev_l1 8))))
(assert
 (let (($x31 (not (and (= dev_l1 dev_l1) (= dev_a dev_a)))))
 (let (($x26 (not (and (= dev_l0 dev_l0) (= dev_b dev_b)))))
 (or $x26 $x31))))
(check-sat)
