; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2}
;   source f32[{x}16, {y}8]
;   all_to_all(src=0, dst=1, axes={x:(2)2})
;   collective_permute(to=f32[{y}16, {x}8])
;   target f32[{y}16, {x}8]
; 
(set-info :status unsat)
(declare-fun a1_x () Int)
(declare-fun a1_y () Int)
(declare-fun a1_l0 () Int)
(declare-fun a1_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun h1_lo () Int)
(declare-fun h1_hi () Int)
(assert
 (let (($x7 (>= a1_x 0)))
 (and $x7 (< a1_x 4))))
(assert
 (let (($x12 (>= a1_y 0)))
 (and $x12 (< a1_y 2))))
(assert
 (let (($x17 (>= a1_l0 0)))
 (and $x17 (< a1_l0 8))))
(assert
 (let (($x22 (>= a1_l1 0)))
 (and $x22 (< a1_l1 2))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (= a1_x (+ (* h0_hi 2) h0_lo)))
(assert
 (and (and (and (>= h1_hi 0) (< h1_hi 2)) (>= h1_lo 0)) (< h1_lo 4)))
(assert
 (= a1_l0 (+ (* h1_hi 4) h1_lo)))
(assert
 (let (($x61 (and true false)))
 (let (($x52 (and true (not (and (= h1_hi h0_lo))))))
 (let (($x63 (and $x52 $x61)))
 (or $x63)))))
(check-sat)
