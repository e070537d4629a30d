; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:4, z:16}
;   source f32[{y}512, {x}128]
;   collective_permute(to=f32[{x}512, {y}128])
;   target f32[{x}512, {y}128]
; 
(set-info :status unsat)
(declare-fun bytes_after_step0 () Int)
(declare-fun bytes_after_step1 () Int)
(assert
 (= bytes_after_step0 16384))
(assert
 (= bytes_after_step1 16384))
(assert
 (let (($x11 (> bytes_after_step1 16384)))
 (let (($x8 (> bytes_after_step0 16384)))
 (let (($x12 (or $x8 $x11)))
 (or $x12)))))
(check-sat)
