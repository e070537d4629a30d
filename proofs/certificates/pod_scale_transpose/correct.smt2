; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:16, b:16, c:16, d:16}
;   source bf16[{a,b}65536, {c}65536, {d}1024]
;   all_to_all(src=0, dst=1, axes={b})
;   all_to_all(src=2, dst=1, axes={d})
;   collective_permute(to=bf16[{d}65536, {a,b,c}65536, 1024])
;   target bf16[{d}65536, {a,b,c}65536, 1024]
; 
(set-info :status unsat)
(declare-fun dev_a () Int)
(declare-fun dev_b () Int)
(declare-fun dev_c () Int)
(declare-fun dev_d () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(declare-fun dev_l2 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun h1_lo () Int)
(declare-fun h1_hi () Int)
(assert
 (let (($x7 (>= dev_a 0)))
 (and $x7 (< dev_a 16))))
(assert
 (let (($x12 (>= dev_b 0)))
 (and $x12 (< dev_b 16))))
(assert
 (let (($x16 (>= dev_c 0)))
 (and $x16 (< dev_c 16))))
(assert
 (let (($x20 (>= dev_d 0)))
 (and $x20 (< dev_d 16))))
(assert
 (let (($x24 (>= dev_l0 0)))
 (and $x24 (< dev_l0 4096))))
(assert
 (let (($x29 (>= dev_l1 0)))
 (and $x29 (< dev_l1 16))))
(assert
 (let (($x33 (>= dev_l2 0)))
 (and $x33 (< dev_l2 1024))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 16)) (>= h0_lo 0)) (< h0_lo 64)))
(assert
 (= dev_l2 (+ (* h0_hi 64) h0_lo)))
(assert
 (and (and (and (>= h1_hi 0) (< h1_hi 16)) (>= h1_lo 0)) (< h1_lo 256)))
(assert
 (= dev_l0 (+ (* h1_hi 256) h1_lo)))
(assert
 (let (($x77 (not (and (= h0_lo h0_lo) (= h0_hi h0_hi)))))
 (let (($x72 (and (= dev_l1 dev_l1) (= dev_c dev_c) (= dev_b dev_b) (= dev_a dev_a))))
 (let (($x73 (not $x72)))
 (let (($x67 (not (and (= h1_lo h1_lo) (= h1_hi h1_hi) (= dev_d dev_d)))))
 (or $x67 $x73 $x77))))))
(check-sat)
