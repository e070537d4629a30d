; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:2, y:2}
;   source f32[{x}8, {y}8]
;   collective_permute(to=f32[{x}8, {y}8], mesh={x:2, y:2} devices=[0,2,1,3])
;   all_gather(dim=1, axes={y})
;   target f32[{x}8, 8]
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
