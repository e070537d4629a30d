; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:2, y:3}
;   source f32[{x}12, 12]
;   all_slice(dim=0, axes={y})
;   collective_permute(to=f32[{y,x}12, 12])
;   all_gather(dim=0, axes={x})
;   target f32[{y}12, 12]
; 
(set-info :status unsat)
(declare-fun a2_x () Int)
(declare-fun a2_y () Int)
(declare-fun a2_l0 () Int)
(declare-fun a2_l1 () Int)
(assert
 (let (($x7 (>= a2_x 0)))
 (and $x7 (< a2_x 2))))
(assert
 (let (($x12 (>= a2_y 0)))
 (and $x12 (< a2_y 3))))
(assert
 (let (($x17 (>= a2_l0 0)))
 (and $x17 (< a2_l0 2))))
(assert
 (let (($x21 (>= a2_l1 0)))
 (and $x21 (< a2_l1 12))))
(assert
 (let (($x38 (and true false)))
 (let (($x33 (and (and (= (div (+ (* a2_y 2) a2_x) 3) a2_x)) (and (= (mod (+ (* a2_y 2) a2_x) 3) a2_y)))))
 (let (($x35 (and true (not $x33))))
 (let (($x40 (and $x35 $x38)))
 (or $x40))))))
(check-sat)
