; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:8}
;   source f32[{x}16, 8]
;   all_to_all(src=0, dst=1, axes={x})
;   target f32[16, {x}8]
; 
(set-info :status unsat)
(declare-fun bytes_after_step0 () Int)
(declare-fun bytes_after_step1 () Int)
(assert
 (= bytes_after_step0 64))
(assert
 (= bytes_after_step1 64))
(assert
 (let (($x11 (> bytes_after_step1 64)))
 (let (($x8 (> bytes_after_step0 64)))
 (let (($x12 (or $x8 $x11)))
 (or $x12)))))
(check-sat)
