; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:6}
;   source f32[{x:(1)2}6, 2]
;   all_slice(dim=0, axes={x:(2)3})
;   all_gather(dim=0, axes={x:(3)2})
;   target f32[{x:(1)3}6, 2]
; 
(set-info :status unsat)
(assert
 or)
(check-sat)
