; redist certificate: property 'transfers' is refuted; `z3 transfers.smt2` must print sat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2}
;   source f32[{x}16, {y}8]
;   all_to_all(src=0, dst=1, axes={x:(2)2})
;   collective_permute(to=f32[{y}16, {x}8])
;   target f32[{y}16, {x}8]
; 
(set-info :status sat)
(declare-fun a1_x () Int)
(declare-fun a1_y () Int)
(declare-fun a1_l0 () Int)
(declare-fun a1_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun h1_lo () Int)
(declare-fun h1_hi () Int)
(declare-fun held_x () Int)
(declare-fun held_y () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(declare-fun h2_lo () Int)
(declare-fun h2_hi () Int)
(declare-fun h3_lo () Int)
(declare-fun h3_hi () Int)
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
 (let (($x64 (>= held_x 0)))
 (and $x64 (< held_x 4))))
(assert
 (let (($x68 (>= held_y 0)))
 (and $x68 (< held_y 2))))
(assert
 (let (($x72 (>= held_l0 0)))
 (and $x72 (< held_l0 8))))
(assert
 (let (($x76 (>= held_l1 0)))
 (and $x76 (< held_l1 2))))
(assert
 (and (and (and (>= h2_hi 0) (< h2_hi 2)) (>= h2_lo 0)) (< h2_lo 4)))
(assert
 (= held_l0 (+ (* h2_hi 4) h2_lo)))
(assert
 (and (and (and (>= h3_hi 0) (< h3_hi 2)) (>= h3_lo 0)) (< h3_lo 2)))
(assert
 (= held_x (+ (* h3_hi 2) h3_lo)))
(assert
 (let (($x113 (not (and (= h2_hi h3_lo)))))
 (let (($x106 (= h3_hi held_y)))
 (let (($x107 (and $x106)))
 (let (($x104 (= held_y h3_hi)))
 (let (($x103 (= h2_hi h3_lo)))
 (let (($x105 (and $x103 $x104)))
 (let (($x114 (and $x105 $x107)))
 (let (($x116 (and $x114 $x113)))
 (let (($x111 (not (and (and (= h3_lo h3_lo) $x104) $x107))))
 (let (($x115 (and $x114 $x111)))
 (let (($x58 (and (and (= h0_lo h0_lo) (= a1_y h0_hi)) (and (= h0_hi a1_y)))))
 (let (($x60 (and true (not $x58))))
 (let (($x52 (and true (not (and (= h1_hi h0_lo))))))
 (let (($x63 (and $x52 $x60)))
 (or $x63 $x115 $x116))))))))))))))))
(check-sat)
