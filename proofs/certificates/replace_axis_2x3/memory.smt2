; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:2, y:3}
;   source f32[{x}12, 12]
;   all_slice(dim=0, axes={y})
;   collective_permute(to=f32[{y,x}12, 12])
;   all_gather(dim=0, axes={x})
;   target f32[{y}12, 12]
; 
(set-info :status unsat)
(declare-fun bytes_after_step0 () Int)
(declare-fun bytes_after_step1 () Int)
(declare-fun bytes_after_step2 () Int)
(declare-fun bytes_after_step3 () Int)
(assert
 (= bytes_after_step0 288))
(assert
 (= bytes_after_step1 96))
(assert
 (= bytes_after_step2 96))
(assert
 (= bytes_after_step3 192))
(assert
 (let (($x19 (> bytes_after_step3 288)))
 (let (($x15 (> bytes_after_step2 288)))
 (let (($x12 (> bytes_after_step1 288)))
 (let (($x8 (> bytes_after_step0 288)))
 (let (($x20 (or $x8 $x12 $x15 $x19)))
 (or $x20)))))))
(check-sat)
