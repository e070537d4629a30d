; redist certificate: property 'transfers' is refuted; `z3 transfers.smt2` must print sat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:2, z:4}
;   source f32[16, {y,z}8, 8]
;   all_slice(dim=0, axes={x})
;   all_to_all(src=1, dst=0, axes={z})
;   all_to_all(src=1, dst=2, axes={y})
;   target f32[{x,z}16, 8, {y}8]
; 
(set-info :status sat)
(declare-fun a2_x () Int)
(declare-fun a2_y () Int)
(declare-fun a2_z () Int)
(declare-fun a2_l0 () Int)
(declare-fun a2_l1 () Int)
(declare-fun a2_l2 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun held_x () Int)
(declare-fun held_y () Int)
(declare-fun held_z () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(declare-fun held_l2 () Int)
(declare-fun h1_lo () Int)
(declare-fun h1_hi () Int)
(assert
 (let (($x7 (>= a2_x 0)))
 (and $x7 (< a2_x 4))))
(assert
 (let (($x12 (>= a2_y 0)))
 (and $x12 (< a2_y 2))))
(assert
 (let (($x17 (>= a2_z 0)))
 (and $x17 (< a2_z 4))))
(assert
 (let (($x21 (>= a2_l0 0)))
 (and $x21 (< a2_l0 1))))
(assert
 (let (($x26 (>= a2_l1 0)))
 (and $x26 (< a2_l1 4))))
(assert
 (let (($x30 (>= a2_l2 0)))
 (and $x30 (< a2_l2 8))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 4)))
(assert
 (= a2_l2 (+ (* h0_hi 4) h0_lo)))
(assert
 (let (($x57 (>= held_x 0)))
 (and $x57 (< held_x 4))))
(assert
 (let (($x61 (>= held_y 0)))
 (and $x61 (< held_y 2))))
(assert
 (let (($x65 (>= held_z 0)))
 (and $x65 (< held_z 4))))
(assert
 (let (($x69 (>= held_l0 0)))
 (and $x69 (< held_l0 1))))
(assert
 (let (($x73 (>= held_l1 0)))
 (and $x73 (< held_l1 8))))
(assert
 (let (($x77 (>= held_l2 0)))
 (and $x77 (< held_l2 4))))
(assert
 (and (and (and (>= h1_hi 0) (< h1_hi 2)) (>= h1_lo 0)) (< h1_lo 4)))
(assert
 (= held_l1 (+ (* h1_hi 4) h1_lo)))
(assert
 (let (($x94 (= h1_hi held_y)))
 (let (($x93 (= h1_lo held_z)))
 (let (($x95 (and $x93 $x94)))
 (let (($x100 (and and $x95 and)))
 (let (($x103 (and $x100 false)))
 (let (($x99 (not (and $x93))))
 (let (($x102 (and $x100 $x99)))
 (let (($x97 (not (and $x94))))
 (let (($x101 (and $x100 $x97)))
 (let (($x53 (and true (not (and (= h0_hi a2_y))))))
 (let (($x37 (and true (not (and (= a2_l1 a2_z))))))
 (let (($x56 (and $x37 $x53)))
 (or $x56 $x101 $x102 $x103))))))))))))))
(check-sat)
