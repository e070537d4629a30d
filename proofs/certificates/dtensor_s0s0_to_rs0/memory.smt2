; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:2, b:2}
;   source f32[{a,b}16, 4]
;   collective_permute(to=f32[{b,a}16, 4])
;   all_gather(dim=0, axes={a})
;   target f32[{b}16, 4]
; 
(set-info :status unsat)
(declare-fun bytes_after_step0 () Int)
(declare-fun bytes_after_step1 () Int)
(declare-fun bytes_after_step2 () Int)
(assert
 (= bytes_after_step0 64))
(assert
 (= bytes_after_step1 64))
(assert
 (= bytes_after_step2 128))
(assert
 (let (($x15 (> bytes_after_step2 128)))
 (let (($x12 (> bytes_after_step1 128)))
 (let (($x9 (> bytes_after_step0 128)))
 (let (($x16 (or $x9 $x12 $x15)))
 (or $x16))))))
(check-sat)
