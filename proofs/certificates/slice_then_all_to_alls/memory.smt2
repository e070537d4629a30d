; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2, z:4}
;   source f32[16, {y,z}8, 8]
;   all_slice(dim=0, axes={x})
;   all_to_all(src=1, dst=0, axes={z})
;   all_to_all(src=1, dst=2, axes={y})
;   target f32[{x,z}16, 8, {y}8]
; 
(set-info :status unsat)
(declare-fun bytes_after_step0 () Int)
(declare-fun bytes_after_step1 () Int)
(declare-fun bytes_after_step2 () Int)
(declare-fun bytes_after_step3 () Int)
(assert
 (= bytes_after_step0 512))
(assert
 (= bytes_after_step1 128))
(assert
 (= bytes_after_step2 128))
(assert
 (= bytes_after_step3 128))
(assert
 (let (($x18 (> bytes_after_step3 512)))
 (let (($x15 (> bytes_after_step2 512)))
 (let (($x12 (> bytes_after_step1 512)))
 (let (($x8 (> bytes_after_step0 512)))
 (let (($x19 (or $x8 $x12 $x15 $x18)))
 (or $x19)))))))
(check-sat)
