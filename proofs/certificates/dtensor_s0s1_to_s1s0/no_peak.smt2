; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:2, b:2}
;   source f32[{a}16, {b}16]
;   collective_permute(to=f32[{b}16, {a}16])
;   target f32[{b}16, {a}16]
; 
(set-info :status unsat)
(assert
 or)
(check-sat)
