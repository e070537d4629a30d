; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:6}
;   source f32[{x:(1)2}6, 2]
;   all_slice(dim=0, axes={x:(2)3})
;   all_gather(dim=0, axes={x:(3)2})
;   target f32[{x:(1)3}6, 2]
; 
(set-info :status unsat)
(declare-fun dev_x () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(assert
 (let (($x7 (>= dev_x 0)))
 (and $x7 (< dev_x 6))))
(assert
 (let (($x12 (>= dev_l0 0)))
 (and $x12 (< dev_l0 2))))
(assert
 (let (($x17 (>= dev_l1 0)))
 (and $x17 (< dev_l1 2))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 3)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (= dev_x (+ (* h0_hi 2) h0_lo)))
(assert
 (let (($x42 (not (and (= dev_l1 dev_l1)))))
 (let ((?x30 (* h0_hi 2)))
 (let ((?x34 (+ ?x30 dev_l0)))
 (let (($x39 (not (= (+ (* (div ?x34 3) 3) (mod ?x34 3)) ?x34))))
 (or $x39 $x42))))))
(check-sat)
