; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:16, b:16, c:16, d:16}
;   source bf16[{a,b}65536, {c}65536, {d}1024]
;   all_to_all(src=0, dst=1, axes={b})
;   all_to_all(src=2, dst=1, axes={d})
;   collective_permute(to=bf16[{d}65536, {a,b,c}65536, 1024])
;   target bf16[{d}65536, {a,b,c}65536, 1024]
; 
(set-info :status unsat)
(declare-fun a1_a () Int)
(declare-fun a1_b () Int)
(declare-fun a1_c () Int)
(declare-fun a1_d () Int)
(declare-fun a1_l0 () Int)
(declare-fun a1_l1 () Int)
(declare-fun a1_l2 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun h1_lo () Int)
(declare-fun h1_hi () Int)
(declare-fun a2_a () Int)
(declare-fun a2_b () Int)
(declare-fun a2_c () Int)
(declare-fun a2_d () Int)
(declare-fun a2_l0 () Int)
(declare-fun a2_l1 () Int)
(declare-fun a2_l2 () Int)
(declare-fun h2_lo () Int)
(declare-fun h2_hi () Int)
(assert
 (let (($x7 (>= a1_a 0)))
 (and $x7 (< a1_a 16))))
(assert
 (let (($x12 (>= a1_b 0)))
 (and $x12 (< a1_b 16))))
(assert
 (let (($x16 (>= a1_c 0)))
 (and $x16 (< a1_c 16))))
(assert
 (let (($x20 (>= a1_d 0)))
 (and $x20 (< a1_d 16))))
(assert
 (let (($x24 (>= a1_l0 0)))
 (and $x24 (< a1_l0 4096))))
(assert
 (let (($x29 (>= a1_l1 0)))
 (and $x29 (< a1_l1 256))))
(assert
 (let (($x34 (>= a1_l2 0)))
 (and $x34 (< a1_l2 64))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 16)) (>= h0_lo 0)) (< h0_lo 256)))
(assert
 (= a1_l0 (+ (* h0_hi 256) h0_lo)))
(assert
 (and (and (and (>= h1_hi 0) (< h1_hi 16)) (>= h1_lo 0)) (< h1_lo 16)))
(assert
 (= a1_l1 (+ (* h1_hi 16) h1_lo)))
(assert
 (let (($x84 (>= a2_a 0)))
 (and $x84 (< a2_a 16))))
(assert
 (let (($x89 (>= a2_b 0)))
 (and $x89 (< a2_b 16))))
(assert
 (let (($x93 (>= a2_c 0)))
 (and $x93 (< a2_c 16))))
(assert
 (let (($x97 (>= a2_d 0)))
 (and $x97 (< a2_d 16))))
(assert
 (let (($x101 (>= a2_l0 0)))
 (and $x101 (< a2_l0 4096))))
(assert
 (let (($x105 (>= a2_l1 0)))
 (and $x105 (< a2_l1 16))))
(assert
 (let (($x109 (>= a2_l2 0)))
 (and $x109 (< a2_l2 1024))))
(assert
 (and (and (and (>= h2_hi 0) (< h2_hi 16)) (>= h2_lo 0)) (< h2_lo 64)))
(assert
 (= a2_l2 (+ (* h2_hi 64) h2_lo)))
(assert
 (let (($x70 (and true false)))
 (let (($x128 (and true (not (and (= h2_hi a2_d))))))
 (let (($x142 (and $x128 $x70)))
 (let (($x66 (= h1_hi a1_d)))
 (let (($x67 (and $x66)))
 (let (($x71 (and true $x67)))
 (let (($x83 (and $x71 false)))
 (let (($x53 (and true (not (and (= h0_hi a1_b))))))
 (let (($x140 (and $x53 $x83)))
 (let (($x141 (and $x53 $x70)))
 (or $x141 $x140 $x142))))))))))))
(check-sat)
