; redist certificate: property 'transfers' is refuted; `z3 transfers.smt2` must print sat.
; The query is the negation of the property for the plan:
;   mesh {x1:2, x2:2, y1:3, y2:2}
;   source f32[{x2,x1}12, {y2,y1}12]
;   all_to_all(src=1, dst=0, axes={y1})
;   collective_permute(to=f32[{y2,y1,x1}12, {x2}12])
;   all_to_all(src=0, dst=1, axes={x1})
;   target f32[{y2,y1}12, {x2,x1}12]
; 
(set-info :status sat)
(declare-fun a1_x1 () Int)
(declare-fun a1_x2 () Int)
(declare-fun a1_y1 () Int)
(declare-fun a1_y2 () Int)
(declare-fun a1_l0 () Int)
(declare-fun a1_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun h1_lo () Int)
(declare-fun h1_hi () Int)
(declare-fun h2_lo () Int)
(declare-fun h2_hi () Int)
(declare-fun a2_x1 () Int)
(declare-fun a2_x2 () Int)
(declare-fun a2_y1 () Int)
(declare-fun a2_y2 () Int)
(declare-fun a2_l0 () Int)
(declare-fun a2_l1 () Int)
(declare-fun h3_lo () Int)
(declare-fun h3_hi () Int)
(declare-fun h4_lo () Int)
(declare-fun h4_hi () Int)
(declare-fun held_x1 () Int)
(declare-fun held_x2 () Int)
(declare-fun held_y1 () Int)
(declare-fun held_y2 () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(declare-fun h5_lo () Int)
(declare-fun h5_hi () Int)
(declare-fun h6_lo () Int)
(declare-fun h6_hi () Int)
(assert
 (let (($x7 (>= a1_x1 0)))
 (and $x7 (< a1_x1 2))))
(assert
 (let (($x12 (>= a1_x2 0)))
 (and $x12 (< a1_x2 2))))
(assert
 (let (($x16 (>= a1_y1 0)))
 (and $x16 (< a1_y1 3))))
(assert
 (let (($x21 (>= a1_y2 0)))
 (and $x21 (< a1_y2 2))))
(assert
 (let (($x25 (>= a1_l0 0)))
 (and $x25 (< a1_l0 1))))
(assert
 (let (($x30 (>= a1_l1 0)))
 (and $x30 (< a1_l1 6))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 3)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (= a1_l1 (+ (* h0_hi 2) h0_lo)))
(assert
 (and (and (and (>= h1_hi 0) (< h1_hi 2)) (>= h1_lo 0)) (< h1_lo 2)))
(assert
 (let ((?x53 (+ (* (+ (* a1_y2 3) a1_y1) 2) a1_x1)))
 (let ((?x54 (div ?x53 3)))
 (= ?x54 (+ (* h1_hi 2) h1_lo)))))
(assert
 (and (and (and (>= h2_hi 0) (< h2_hi 2)) (>= h2_lo 0)) (< h2_lo 3)))
(assert
 (= a1_l1 (+ (* h2_hi 3) h2_lo)))
(assert
 (let (($x98 (>= a2_x1 0)))
 (and $x98 (< a2_x1 2))))
(assert
 (let (($x103 (>= a2_x2 0)))
 (and $x103 (< a2_x2 2))))
(assert
 (let (($x107 (>= a2_y1 0)))
 (and $x107 (< a2_y1 3))))
(assert
 (let (($x111 (>= a2_y2 0)))
 (and $x111 (< a2_y2 2))))
(assert
 (let (($x115 (>= a2_l0 0)))
 (and $x115 (< a2_l0 1))))
(assert
 (let (($x119 (>= a2_l1 0)))
 (and $x119 (< a2_l1 6))))
(assert
 (and (and (and (>= h3_hi 0) (< h3_hi 2)) (>= h3_lo 0)) (< h3_lo 2)))
(assert
 (let ((?x125 (+ (* (+ (* a2_y2 3) a2_y1) 2) a2_x1)))
 (let ((?x126 (div ?x125 3)))
 (= ?x126 (+ (* h3_hi 2) h3_lo)))))
(assert
 (and (and (and (>= h4_hi 0) (< h4_hi 2)) (>= h4_lo 0)) (< h4_lo 3)))
(assert
 (= a2_l1 (+ (* h4_hi 3) h4_lo)))
(assert
 (let (($x171 (>= held_x1 0)))
 (and $x171 (< held_x1 2))))
(assert
 (let (($x175 (>= held_x2 0)))
 (and $x175 (< held_x2 2))))
(assert
 (let (($x179 (>= held_y1 0)))
 (and $x179 (< held_y1 3))))
(assert
 (let (($x183 (>= held_y2 0)))
 (and $x183 (< held_y2 2))))
(assert
 (let (($x187 (>= held_l0 0)))
 (and $x187 (< held_l0 2))))
(assert
 (let (($x191 (>= held_l1 0)))
 (and $x191 (< held_l1 3))))
(assert
 (and (and (and (>= h5_hi 0) (< h5_hi 2)) (>= h5_lo 0)) (< h5_lo 2)))
(assert
 (let ((?x197 (+ (* (+ (* held_y2 3) held_y1) 2) held_l0)))
 (let ((?x198 (div ?x197 3)))
 (= ?x198 (+ (* h5_hi 2) h5_lo)))))
(assert
 (and (and (and (>= h6_hi 0) (< h6_hi 2)) (>= h6_lo 0)) (< h6_lo 3)))
(assert
 (let ((?x218 (div (+ (* (+ (* held_x2 2) held_x1) 3) held_l1) 2)))
 (= ?x218 (+ (* h6_hi 3) h6_lo))))
(assert
 (let ((?x197 (+ (* (+ (* held_y2 3) held_y1) 2) held_l0)))
 (let ((?x237 (mod ?x197 3)))
 (let ((?x248 (+ (* held_x1 3) held_l1)))
 (let ((?x249 (div ?x248 2)))
 (let (($x253 (not (and (= ?x249 ?x237)))))
 (let (($x232 (= h6_hi held_y2)))
 (let (($x231 (= h6_lo held_y1)))
 (let (($x233 (and $x231 $x232)))
 (let (($x212 (= h5_hi held_x2)))
 (let (($x211 (= h5_lo held_x1)))
 (let (($x213 (and $x211 $x212)))
 (let (($x254 (and $x213 $x233)))
 (let (($x257 (and $x254 $x253)))
 (let (($x245 (and (and (= h5_lo held_l0)) (and $x212) (and (= ?x237 held_y1)) (and (= held_x2 held_y2)))))
 (let (($x246 (not $x245)))
 (let (($x256 (and $x254 $x246)))
 (let (($x236 (not (and (= held_l0 held_x1)))))
 (let (($x255 (and $x254 $x236)))
 (let (($x166 (and true (not (and (= h4_hi a2_x1))))))
 (let (($x144 (= (mod (+ (* (+ (* a2_y2 3) a2_y1) 2) a2_x1) 3) a2_y1)))
 (let (($x148 (and (and (= h3_lo a2_x1)) (and (= h3_hi a2_x2)) (and $x144) (and (= a2_x2 a2_y2)))))
 (let (($x150 (and true (not $x148))))
 (let (($x169 (and $x150 $x166)))
 (let (($x72 (= (mod (+ (* (+ (* a1_y2 3) a1_y1) 2) a1_x1) 3) a1_y1)))
 (let (($x76 (and (and (= h1_lo a1_x1)) (and (= h1_hi a1_x2)) (and $x72) (and (= a1_x2 a1_y2)))))
 (let (($x80 (and true $x76)))
 (let (($x96 (and $x80 (not (and (= h2_hi a1_x1))))))
 (let (($x49 (and true (not (and (= h0_hi a1_y1))))))
 (let (($x167 (and $x49 $x96)))
 (let (($x78 (and true (not $x76))))
 (let (($x168 (and $x49 $x78)))
 (or $x168 $x167 $x169 $x255 $x256 $x257)))))))))))))))))))))))))))))))))
(check-sat)
