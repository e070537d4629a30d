; redist certificate: property 'transfers' is proved; `z3 transfers.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {a:2, b:2}
;   source f32[{a,b}16, 4]
;   collective_permute(to=f32[{b,a}16, 4])
;   all_gather(dim=0, axes={a})
;   target f32[{b}16, 4]
; 
(set-info :status unsat)
(declare-fun a1_a () Int)
(declare-fun a1_b () Int)
(declare-fun a1_l0 () Int)
(declare-fun a1_l1 () Int)
(declare-fun held_a () Int)
(declare-fun held_b () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(assert
 (let (($x7 (>= a1_a 0)))
 (and $x7 (< a1_a 2))))
(assert
 (let (($x12 (>= a1_b 0)))
 (and $x12 (< a1_b 2))))
(assert
 (let (($x16 (>= a1_l0 0)))
 (and $x16 (< a1_l0 4))))
(assert
 (let (($x21 (>= a1_l1 0)))
 (and $x21 (< a1_l1 4))))
(assert
 (let (($x36 (>= held_a 0)))
 (and $x36 (< held_a 2))))
(assert
 (let (($x40 (>= held_b 0)))
 (and $x40 (< held_b 2))))
(assert
 (let (($x44 (>= held_l0 0)))
 (and $x44 (< held_l0 8))))
(assert
 (let (($x49 (>= held_l1 0)))
 (and $x49 (< held_l1 4))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 4)))
(assert
 (= held_l0 (+ (* h0_hi 4) h0_lo)))
(assert
 (let (($x75 (not (and (and (= held_b h0_hi)) (and (= h0_hi held_b))))))
 (let (($x65 (= held_b held_a)))
 (let (($x64 (= h0_hi held_b)))
 (let (($x66 (and $x64 $x65)))
 (let (($x76 (and $x66 and)))
 (let (($x78 (and $x76 $x75)))
 (let (($x70 (not (and (= h0_hi held_a)))))
 (let (($x77 (and $x76 $x70)))
 (let (($x32 (and true (not true))))
 (let (($x30 (and true (not (and (and (= a1_b a1_a)) (and (= a1_a a1_b)))))))
 (let (($x35 (and $x30 $x32)))
 (or $x35 $x77 $x78)))))))))))))
(check-sat)
