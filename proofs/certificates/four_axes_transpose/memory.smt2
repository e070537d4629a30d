; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x1:2, x2:2, y1:3, y2:2}
;   source f32[{x2,x1}12, {y2,y1}12]
;   all_to_all(src=1, dst=0, axes={y1})
;   collective_permute(to=f32[{y2,y1,x1}12, {x2}12])
;   all_to_all(src=0, dst=1, axes={x1})
;   target f32[{y2,y1}12, {x2,x1}12]
; 
(set-info :status unsat)
(declare-fun bytes_after_step0 () Int)
(declare-fun bytes_after_step1 () Int)
(declare-fun bytes_after_step2 () Int)
(declare-fun bytes_after_step3 () Int)
(assert
 (= bytes_after_step0 24))
(assert
 (= bytes_after_step1 24))
(assert
 (= bytes_after_step2 24))
(assert
 (= bytes_after_step3 24))
(assert
 (let (($x17 (> bytes_after_step3 24)))
 (let (($x14 (> bytes_after_step2 24)))
 (let (($x11 (> bytes_after_step1 24)))
 (let (($x8 (> bytes_after_step0 24)))
 (let (($x18 (or $x8 $x11 $x14 $x17)))
 (or $x18)))))))
(check-sat)
