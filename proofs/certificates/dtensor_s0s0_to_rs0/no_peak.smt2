; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:2, b:2}
;   source f32[{a,b}16, 4]
;   collective_permute(to=f32[{b,a}16, 4])
;   all_gather(dim=0, axes={a})
;   target f32[{b}16, 4]
; 
(set-info :status unsat)
(declare-fun a1_a () Int)
(declare-fun a1_b () Int)
(declare-fun a1_l0 () Int)
(declare-fun a1_l1 () Int)
(assert
 (let (($x7 (>= a1_a 0)))
 (and $x7 (< a1_a 2))))
(assert
 (let (($x12 (>= a1_b 0)))
 (and $x12 (< a1_b 2))))
(assert
 (let (($x16 (>= a1_l0 0)))
 (and $x16 (< a1_l0 4))))
(assert
 (let (($x21 (>= a1_l1 0)))
 (and $x21 (< a1_l1 4))))
(assert
 (let (($x33 (and true false)))
 (let (($x30 (and true (not (and (and (= a1_b a1_a)) (and (= a1_a a1_b)))))))
 (let (($x35 (and $x30 $x33)))
 (or $x35)))))
(check-sat)
