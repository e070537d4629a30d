; redist certificate: property 'memory' is proved; `z3 memory.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:16, b:16, c:16, d:16}
;   source bf16[{a,b}65536, {c}65536, {d}1024]
;   all_to_all(src=0, dst=1, axes={b})
;   all_to_all(src=2, dst=1, axes={d})
;   collective_permute(to=bf16[{d}65536, {a,b,c}65536, 1024])
;   target bf16[{d}65536, {a,b,c}65536, 1024]
; 
(set-info :status unsat)
(declare-fun bytes_after_step0 () Int)
(declare-fun bytes_after_step1 () Int)
(declare-fun bytes_after_step2 () Int)
(declare-fun bytes_after_step3 () Int)
(assert
 (= bytes_after_step0 134217728))
(assert
 (= bytes_after_step1 134217728))
(assert
 (= bytes_after_step2 134217728))
(assert
 (= bytes_after_step3 134217728))
(assert
 (let (($x17 (> bytes_after_step3 134217728)))
 (let (($x14 (> bytes_after_step2 134217728)))
 (let (($x11 (> bytes_after_step1 134217728)))
 (let (($x8 (> bytes_after_step0 134217728)))
 (let (($x18 (or $x8 $x11 $x14 $x17)))
 (or $x18)))))))
(check-sat)
