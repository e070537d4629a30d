; redist certificate: property 'transfers' is proved; `z3 transfers.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:2, y:2}
;   source f32[{x}8, {y}8]
;   collective_permute(to=f32[{x}8, {y}8], mesh={x:2, y:2} devices=[0,2,1,3])
;   all_gather(dim=1, axes={y})
;   target f32[{x}8, 8]
; 
(set-info :status unsat)
(declare-fun a1_x () Int)
(declare-fun a1_y () Int)
(declare-fun a1_l0 () Int)
(declare-fun a1_l1 () Int)
(declare-fun order0 (Int) Int)
(declare-fun held_x () Int)
(declare-fun held_y () Int)
(declare-fun held_l0 () Int)
(declare-fun held_l1 () Int)
(declare-fun order1 (Int) Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun h1_lo () Int)
(declare-fun h1_hi () Int)
(declare-fun order2 (Int) Int)
(assert
 (let (($x7 (>= a1_x 0)))
 (and $x7 (< a1_x 2))))
(assert
 (let (($x12 (>= a1_y 0)))
 (and $x12 (< a1_y 2))))
(assert
 (let (($x16 (>= a1_l0 0)))
 (and $x16 (< a1_l0 4))))
(assert
 (let (($x21 (>= a1_l1 0)))
 (and $x21 (< a1_l1 4))))
(assert
 (= (order0 0) 0))
(assert
 (= (order0 1) 2))
(assert
 (= (order0 2) 1))
(assert
 (= (order0 3) 3))
(assert
 (let (($x45 (>= held_x 0)))
 (and $x45 (< held_x 2))))
(assert
 (let (($x49 (>= held_y 0)))
 (and $x49 (< held_y 2))))
(assert
 (let (($x53 (>= held_l0 0)))
 (and $x53 (< held_l0 4))))
(assert
 (let (($x57 (>= held_l1 0)))
 (and $x57 (< held_l1 8))))
(assert
 (= (order1 0) 0))
(assert
 (= (order1 1) 2))
(assert
 (= (order1 2) 1))
(assert
 (= (order1 3) 3))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 2)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (let ((?x71 (order1 (+ (* held_x 2) held_y))))
 (= ?x71 (+ (* h0_hi 2) h0_lo))))
(assert
 (and (and (and (>= h1_hi 0) (< h1_hi 2)) (>= h1_lo 0)) (< h1_lo 4)))
(assert
 (= held_l1 (+ (* h1_hi 4) h1_lo)))
(assert
 (= (order2 0) 0))
(assert
 (= (order2 1) 2))
(assert
 (= (order2 2) 1))
(assert
 (= (order2 3) 3))
(assert
 (let ((?x61 (* held_x 2)))
 (let ((?x103 (+ ?x61 h1_hi)))
 (let (($x114 (not (= ?x103 (order2 ?x103)))))
 (let (($x98 (= h1_hi h0_lo)))
 (let (($x99 (and $x98)))
 (let (($x84 (= held_x h0_hi)))
 (let (($x85 (and $x84)))
 (let (($x115 (and $x85 $x99)))
 (let (($x117 (and $x115 $x114)))
 (let (($x102 (not (and (= h1_hi held_y)))))
 (let (($x116 (and $x115 $x102)))
 (let (($x41 (and true (not true))))
 (let (($x38 (not (= (+ (* a1_x 2) a1_y) (order0 (+ (* a1_x 2) a1_y))))))
 (let (($x39 (and true $x38)))
 (let (($x44 (and $x39 $x41)))
 (or $x44 $x116 $x117)))))))))))))))))
(check-sat)
