; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:2, b:2}
;   source f32[{a}16, {b}16]
;   collective_permute(to=f32[{b}16, {a}16])
;   target f32[{b}16, {a}16]
; 
(set-info :status unsat)
(declare-fun bytes_after_step0 () Int)
(declare-fun bytes_after_step1 () Int)
(assert
 (= bytes_after_step0 256))
(assert
 (= bytes_after_step1 256))
(assert
 (let (($x11 (> bytes_after_step1 256)))
 (let (($x8 (> bytes_after_step0 256)))
 (let (($x12 (or $x8 $x11)))
 (or $x12)))))
(check-sat)
