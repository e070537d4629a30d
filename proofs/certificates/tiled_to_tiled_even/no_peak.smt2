; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:8}
;   source f32[{x}16, 8]
;   all_to_all(src=0, dst=1, axes={x})
;   target f32[16, {x}8]
; 
(set-info :status unsat)
(assert
 or)
(check-sat)
