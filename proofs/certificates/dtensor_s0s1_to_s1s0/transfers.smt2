; redist certificate: property 'transfers' is proved; `z3 transfers.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:2, b:2}
;   source f32[{a}16, {b}16]
;   collective_permute(to=f32[{b}16, {a}16])
;   target f32[{b}16, {a}16]
; 
(set-info :status unsat)
(declare-fun held_a () Int)
(declare-fun held_b () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(assert
 (let (($x7 (>= held_a 0)))
 (and $x7 (< held_a 2))))
(assert
 (let (($x12 (>= held_b 0)))
 (and $x12 (< held_b 2))))
(assert
 (let (($x16 (>= held_l0 0)))
 (and $x16 (< held_l0 8))))
(assert
 (let (($x21 (>= held_l1 0)))
 (and $x21 (< held_l1 8))))
(assert
 (let (($x26 (= held_a held_b)))
 (let (($x27 (and $x26)))
 (let (($x24 (= held_b held_a)))
 (let (($x25 (and $x24)))
 (let (($x28 (and $x25 $x27)))
 (let (($x29 (not $x28)))
 (let (($x30 (and $x28 $x29)))
 (or $x30)))))))))
(check-sat)
