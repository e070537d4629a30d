; redist certificate: property 'transfers' is proved; `z3 transfers.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:4, z:16}
;   source f32[{x,y}512, 128]
;   collective_permute(to=f32[{y,x}512, 128])
;   target f32[{y,x}512, 128]
; 
(set-info :status unsat)
(declare-fun held_x () Int)
(declare-fun held_y () Int)
(declare-fun held_z () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
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
 (let (($x38 (and (and (= held_y held_x)) (and (= held_x held_y)) (and (= held_z held_z)))))
 (let (($x39 (not $x38)))
 (let (($x41 (and (and (and (= held_x held_y) (= held_y held_x)) and) $x39)))
 (or $x41)))))
(check-sat)
