; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:2, y:2}
;   source f32[{x}8, {y}8]
;   collective_permute(to=f32[{x}8, {y}8], mesh={x:2, y:2} devices=[0,2,1,3])
;   all_gather(dim=1, axes={y})
;   target f32[{x}8, 8]
; 
(set-info :status unsat)
(declare-fun a1_x () Int)
(declare-fun a1_y () Int)
(declare-fun a1_l0 () Int)
(declare-fun a1_l1 () Int)
(declare-fun order0 (Int) Int)
(assert
 (let (($x7 (>= a1_x 0)))
 (and $x7 (< a1_x 2))))
(assert
 (let (($x12 (>= a1_y 0)))
 (and $x12 (< a1_y 2))))
(assert
 (let (($x16 (>= a1_l0 0)))
 (and $x16 (< a1_l0 4))))
(assert
 (let (($x21 (>= a1_l1 0)))
 (and $x21 (< a1_l1 4))))
(assert
 (= (order0 0) 0))
(assert
 (= (order0 1) 2))
(assert
 (= (order0 2) 1))
(assert
 (= (order0 3) 3))
(assert
 (let (($x42 (and true false)))
 (let (($x38 (not (= (+ (* a1_x 2) a1_y) (order0 (+ (* a1_x 2) a1_y))))))
 (let (($x39 (and true $x38)))
 (let (($x44 (and $x39 $x42)))
 (or $x44))))))
(check-sat)
