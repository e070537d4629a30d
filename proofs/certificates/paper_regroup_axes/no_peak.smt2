; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:4, z:16}
;   source f32[{x,y}512, 128]
;   collective_permute(to=f32[{z}512, 128])
;   target f32[{z}512, 128]
; 
(set-info :status unsat)
(assert
 or)
(check-sat)
