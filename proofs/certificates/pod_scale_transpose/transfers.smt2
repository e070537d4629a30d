; redist certificate: property 'transfers' is refuted; `z3 transfers.smt2` must print sat.
; The query is the negation of the property for the plan:
;   mesh {a:16, b:16, c:16, d:16}
;   source bf16[{a,b}65536, {c}65536, {d}1024]
;   all_to_all(src=0, dst=1, axes={b})
;   all_to_all(src=2, dst=1, axes={d})
;   collective_permute(to=bf16[{d}65536, {a,b,c}65536, 1024])
;   target bf16[{d}65536, {a,b,c}65536, 1024]
; 
(set-info :status sat)
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
(declare-fun held_a () Int)
(declare-fun held_b () Int)
(declare-fun held_c () Int)
(declare-fun held_d () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(declare-fun held_l2 () Int)
(declare-fun h3_lo () Int)
(declare-fun h3_hi () Int)
(declare-fun h4_lo () Int)
(declare-fun h4_hi () Int)
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
 (let (($x144 (>= held_a 0)))
 (and $x144 (< held_a 16))))
(assert
 (let (($x148 (>= held_b 0)))
 (and $x148 (< held_b 16))))
(assert
 (let (($x152 (>= held_c 0)))
 (and $x152 (< held_c 16))))
(assert
 (let (($x156 (>= held_d 0)))
 (and $x156 (< held_d 16))))
(assert
 (let (($x160 (>= held_l0 0)))
 (and $x160 (< held_l0 4096))))
(assert
 (let (($x164 (>= held_l1 0)))
 (and $x164 (< held_l1 16))))
(assert
 (let (($x168 (>= held_l2 0)))
 (and $x168 (< held_l2 1024))))
(assert
 (and (and (and (>= h3_hi 0) (< h3_hi 16)) (>= h3_lo 0)) (< h3_lo 256)))
(assert
 (= held_l0 (+ (* h3_hi 256) h3_lo)))
(assert
 (and (and (and (>= h4_hi 0) (< h4_hi 16)) (>= h4_lo 0)) (< h4_lo 64)))
(assert
 (= held_l2 (+ (* h4_hi 64) h4_lo)))
(assert
 (let (($x213 (not (and (= h3_hi held_b)))))
 (let (($x200 (= h4_hi held_d)))
 (let (($x201 (and $x200)))
 (let (($x186 (= held_a held_c)))
 (let (($x187 (and $x186)))
 (let (($x184 (= held_d held_a)))
 (let (($x183 (= h3_hi held_b)))
 (let (($x185 (and $x183 $x184)))
 (let (($x214 (and $x185 $x187 $x201)))
 (let (($x217 (and $x214 $x213)))
 (let (($x211 (not (and (= h4_hi held_c)))))
 (let (($x216 (and $x214 $x211)))
 (let (($x207 (and (and $x184) (and (= held_b held_b)) $x187 (and (= held_c held_d)))))
 (let (($x208 (not $x207)))
 (let (($x215 (and $x214 $x208)))
 (let (($x137 (and (and (= a2_d a2_a)) (and (= a2_b a2_b)) (and (= a2_a a2_c)) (and (= a2_c a2_d)))))
 (let (($x139 (and true (not $x137))))
 (let (($x128 (and true (not (and (= h2_hi a2_d))))))
 (let (($x142 (and $x128 $x139)))
 (let (($x80 (and (and (= a1_d a1_a)) (and (= a1_b a1_b)) (and (= a1_a a1_c)) (and (= a1_c a1_d)))))
 (let (($x66 (= h1_hi a1_d)))
 (let (($x67 (and $x66)))
 (let (($x71 (and true $x67)))
 (let (($x82 (and $x71 (not $x80))))
 (let (($x53 (and true (not (and (= h0_hi a1_b))))))
 (let (($x140 (and $x53 $x82)))
 (let (($x69 (and true (not $x67))))
 (let (($x141 (and $x53 $x69)))
 (or $x141 $x140 $x142 $x215 $x216 $x217))))))))))))))))))))))))))))))
(check-sat)
