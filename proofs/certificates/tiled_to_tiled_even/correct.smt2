; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:8}
;   source f32[{x}16, 8]
;   all_to_all(src=0, dst=1, axes={x})
;   target f32[16, {x}8]
; 
(set-info :status unsat)
(declare-fun dev_x () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(assert
 (let (($x7 (>= dev_x 0)))
 (and $x7 (< dev_x 8))))
(assert
 (let (($x12 (>= dev_l0 0)))
 (and $x12 (< dev_l0 16))))
(assert
 (let (($x17 (>= dev_l1 0)))
 (and $x17 (< dev_l1 1))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 8)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (= dev_l0 (+ (* h0_hi 2) h0_lo)))
(assert
 (let (($x41 (not (and (= dev_l1 dev_l1) (= dev_x dev_x)))))
 (let (($x36 (not (and (= h0_lo h0_lo) (= h0_hi h0_hi)))))
 (or $x36 $x41))))
(check-sat)
