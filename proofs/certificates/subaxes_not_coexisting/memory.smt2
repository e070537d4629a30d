; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:6}
;   source f32[{x:(1)2}6, 2]
;   all_slice(dim=0, axes={x:(2)3})
;   all_gather(dim=0, axes={x:(3)2})
;   target f32[{x:(1)3}6, 2]
; 
(set-info :status unsat)
(declare-fun bytes_after_step0 () Int)
(declare-fun bytes_after_step1 () Int)
(declare-fun bytes_after_step2 () Int)
(assert
 (= bytes_after_step0 24))
(assert
 (= bytes_after_step1 8))
(assert
 (= bytes_after_step2 16))
(assert
 (let (($x16 (> bytes_after_step2 24)))
 (let (($x12 (> bytes_after_step1 24)))
 (let (($x8 (> bytes_after_step0 24)))
 (let (($x17 (or $x8 $x12 $x16)))
 (or $x17))))))
(check-sat)
