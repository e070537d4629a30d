; redist certificate: property 'transfers' is proved; `z3 transfers.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:4, z:16}
;   source f32[{x,y}512, 128]
;   collective_permute(to=f32[{z}512, 128])
;   target f32[{z}512, 128]
; 
(set-info :status unsat)
(declare-fun held_x () Int)
(declare-fun held_y () Int)
(declare-fun held_z () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(assert
 (let (($x7 (>= held_x 0)))
 (and $x7 (< held_x 4))))
(assert
 (let (($x12 (>= held_y 0)))
 (and $x12 (< held_y 4))))
(assert
 (let (($x16 (>= held_z 0)))
 (and $x16 (< held_z 16))))
(assert
 (let (($x21 (>= held_l0 0)))
 (and $x21 (< held_l0 32))))
(assert
 (let (($x26 (>= held_l1 0)))
 (and $x26 (< held_l1 128))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 4)) (>= h0_lo 0)) (< h0_lo 4)))
(assert
 (= held_z (+ (* h0_hi 4) h0_lo)))
(assert
 (let (($x51 (and (and (= h0_hi held_x)) (and (= h0_lo held_y)) (and (= held_y h0_lo) (= held_x h0_hi)))))
 (let (($x52 (not $x51)))
 (let (($x54 (and (and (and (= h0_lo held_y) (= h0_hi held_x)) and) $x52)))
 (or $x54)))))
(check-sat)
