; redist certificate: property 'transfers' is refuted; `z3 transfers.smt2` must print sat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2}
;   source f32[{y}16, 16, {x}16]
;   all_to_all(src=2, dst=1, axes={x})
;   all_to_all(src=0, dst=1, axes={y})
;   target f32[16, {x,y}16, 16]
; 
(set-info :status sat)
(declare-fun a1_x () Int)
(declare-fun a1_y () Int)
(declare-fun a1_l0 () Int)
(declare-fun a1_l1 () Int)
(declare-fun a1_l2 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun h1_lo () Int)
(declare-fun h1_hi () Int)
(declare-fun held_x () Int)
(declare-fun held_y () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(declare-fun held_l2 () Int)
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
 (and $x22 (< a1_l1 4))))
(assert
 (let (($x26 (>= a1_l2 0)))
 (and $x26 (< a1_l2 16))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 4)) (>= h0_lo 0)) (< h0_lo 4)))
(assert
 (= a1_l2 (+ (* h0_hi 4) h0_lo)))
(assert
 (and (and (and (>= h1_hi 0) (< h1_hi 2)) (>= h1_lo 0)) (< h1_lo 2)))
(assert
 (= a1_l1 (+ (* h1_hi 2) h1_lo)))
(assert
 (let (($x65 (>= held_x 0)))
 (and $x65 (< held_x 4))))
(assert
 (let (($x69 (>= held_y 0)))
 (and $x69 (< held_y 2))))
(assert
 (let (($x73 (>= held_l0 0)))
 (and $x73 (< held_l0 16))))
(assert
 (let (($x77 (>= held_l1 0)))
 (and $x77 (< held_l1 2))))
(assert
 (let (($x81 (>= held_l2 0)))
 (and $x81 (< held_l2 16))))
(assert
 (and (and (and (>= h2_hi 0) (< h2_hi 2)) (>= h2_lo 0)) (< h2_lo 8)))
(assert
 (= held_l0 (+ (* h2_hi 8) h2_lo)))
(assert
 (and (and (and (>= h3_hi 0) (< h3_hi 4)) (>= h3_lo 0)) (< h3_lo 4)))
(assert
 (= held_l2 (+ (* h3_hi 4) h3_lo)))
(assert
 (let (($x111 (= h3_hi held_x)))
 (let (($x112 (and $x111)))
 (let (($x114 (not $x112)))
 (let (($x96 (= h2_hi held_y)))
 (let (($x97 (and $x96)))
 (let (($x115 (and $x97 and $x112)))
 (let (($x117 (and $x115 $x114)))
 (let (($x113 (not $x97)))
 (let (($x116 (and $x115 $x113)))
 (let (($x61 (and true (not (and (= h1_hi a1_y))))))
 (let (($x45 (and true (not (and (= h0_hi a1_x))))))
 (let (($x64 (and $x45 $x61)))
 (or $x64 $x116 $x117))))))))))))))
(check-sat)
