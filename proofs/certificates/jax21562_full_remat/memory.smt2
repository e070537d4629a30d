; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2}
;   source f32[{y}16, 16, {x}16]
;   all_to_all(src=2, dst=1, axes={x})
;   all_to_all(src=0, dst=1, axes={y})
;   target f32[16, {x,y}16, 16]
; 
(set-info :status unsat)
(declare-fun bytes_after_step0 () Int)
(declare-fun bytes_after_step1 () Int)
(declare-fun bytes_after_step2 () Int)
(assert
 (= bytes_after_step0 2048))
(assert
 (= bytes_after_step1 2048))
(assert
 (= bytes_after_step2 2048))
(assert
 (let (($x14 (> bytes_after_step2 2048)))
 (let (($x11 (> bytes_after_step1 2048)))
 (let (($x8 (> bytes_after_step0 2048)))
 (let (($x15 (or $x8 $x11 $x14)))
 (or $x15))))))
(check-sat)
