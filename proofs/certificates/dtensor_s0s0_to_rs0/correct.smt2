; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:2, b:2}
;   source f32[{a,b}16, 4]
;   collective_permute(to=f32[{b,a}16, 4])
;   all_gather(dim=0, axes={a})
;   target f32[{b}16, 4]
; 
(set-info :status unsat)
(declare-fun dev_a () Int)
(declare-fun dev_b () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(assert
 (let (($x7 (>= dev_a 0)))
 (and $x7 (< dev_a 2))))
(assert
 (let (($x12 (>= dev_b 0)))
 (and $x12 (< dev_b 2))))
(assert
 (let (($x16 (>= dev_l0 0)))
 (and $x16 (< dev_l0 8))))
(assert
 (let (($x21 (>= dev_l1 0)))
 (and $x21 (< dev_l1 4))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 4)))
(assert
 (= dev_l0 (+ (* h0_hi 4) h0_lo)))
(assert
 (let (($x44 (not (and (= dev_l1 dev_l1)))))
 (let (($x39 (not (and (= h0_lo h0_lo) (= h0_hi h0_hi) (= dev_b dev_b)))))
 (or $x39 $x44))))
(check-sat)
