; redist certificate: property 'transfers' is proved; `z3 transfers.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:4, z:16}
;   source f32[{y}512, {x}128]
;   collective_permute(to=f32[{x}512, {y}128])
;   target f32[{x}512, {y}128]
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
 (and $x21 (< held_l0 128))))
(assert
 (let (($x26 (>= held_l1 0)))
 (and $x26 (< held_l1 32))))
(assert
 (let (($x30 (= held_x held_y)))
 (let (($x31 (and $x30)))
 (let (($x32 (= held_y held_x)))
 (let (($x33 (and $x32)))
 (let (($x37 (not (and $x33 $x31 (and (= held_z held_z))))))
 (let (($x39 (and (and $x31 $x33) $x37)))
 (or $x39))))))))
(check-sat)
