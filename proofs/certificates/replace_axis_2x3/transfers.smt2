; redist certificate: property 'transfers' is refuted; `z3 transfers.smt2` must print sat.
; The query is the negation of the property for the plan:
;   mesh {x:2, y:3}
;   source f32[{x}12, 12]
;   all_slice(dim=0, axes={y})
;   collective_permute(to=f32[{y,x}12, 12])
;   all_gather(dim=0, axes={x})
;   target f32[{y}12, 12]
; 
(set-info :status sat)
(declare-fun a2_x () Int)
(declare-fun a2_y () Int)
(declare-fun a2_l0 () Int)
(declare-fun a2_l1 () Int)
(declare-fun held_x () Int)
(declare-fun held_y () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(assert
 (let (($x7 (>= a2_x 0)))
 (and $x7 (< a2_x 2))))
(assert
 (let (($x12 (>= a2_y 0)))
 (and $x12 (< a2_y 3))))
(assert
 (let (($x17 (>= a2_l0 0)))
 (and $x17 (< a2_l0 2))))
(assert
 (let (($x21 (>= a2_l1 0)))
 (and $x21 (< a2_l1 12))))
(assert
 (let (($x41 (>= held_x 0)))
 (and $x41 (< held_x 2))))
(assert
 (let (($x45 (>= held_y 0)))
 (and $x45 (< held_y 3))))
(assert
 (let (($x49 (>= held_l0 0)))
 (and $x49 (< held_l0 4))))
(assert
 (let (($x54 (>= held_l1 0)))
 (and $x54 (< held_l1 12))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (= held_l0 (+ (* h0_hi 2) h0_lo)))
(assert
 (let (($x61 (and (= (div (+ (* held_y 4) held_l0) 6) held_x))))
 (let (($x89 (and $x61 and)))
 (let (($x92 (and $x89 false)))
 (let (($x87 (and (and (= (div (+ (* held_y 2) h0_hi) 3) h0_hi)) (and (= (mod (+ (* held_y 2) h0_hi) 3) held_y)))))
 (let (($x88 (not $x87)))
 (let (($x91 (and $x89 $x88)))
 (let (($x78 (not (and (= h0_hi held_x)))))
 (let (($x90 (and $x89 $x78)))
 (let (($x37 (and true (not true))))
 (let (($x33 (and (and (= (div (+ (* a2_y 2) a2_x) 3) a2_x)) (and (= (mod (+ (* a2_y 2) a2_x) 3) a2_y)))))
 (let (($x35 (and true (not $x33))))
 (let (($x40 (and $x35 $x37)))
 (or $x40 $x90 $x91 $x92))))))))))))))
(check-sat)
