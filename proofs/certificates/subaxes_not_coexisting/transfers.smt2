; redist certificate: property 'transfers' is refuted; `z3 transfers.smt2` must print sat.
; The query is the negation of the property for the plan:
;   mesh {x:6}
;   source f32[{x:(1)2}6, 2]
;   all_slice(dim=0, axes={x:(2)3})
;   all_gather(dim=0, axes={x:(3)2})
;   target f32[{x:(1)3}6, 2]
; 
(set-info :status sat)
(declare-fun held_x () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun h1_lo () Int)
(declare-fun h1_hi () Int)
(assert
 (let (($x7 (>= held_x 0)))
 (and $x7 (< held_x 6))))
(assert
 (let (($x12 (>= held_l0 0)))
 (and $x12 (< held_l0 2))))
(assert
 (let (($x17 (>= held_l1 0)))
 (and $x17 (< held_l1 2))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 3)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (= held_x (+ (* h0_hi 2) h0_lo)))
(assert
 (and (and (and (>= h1_hi 0) (< h1_hi 2)) (>= h1_lo 0)) (< h1_lo 3)))
(assert
 (= held_x (+ (* h1_hi 3) h1_lo)))
(assert
 (let (($x48 (and (= (div (+ (* h0_hi 2) held_l0) 3) h1_hi))))
 (let (($x54 (and $x48 and)))
 (let (($x56 (and $x54 false)))
 (let (($x52 (not (and (= held_l0 h0_lo)))))
 (let (($x55 (and $x54 $x52)))
 (or $x55 $x56)))))))
(check-sat)
