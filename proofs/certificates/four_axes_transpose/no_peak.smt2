; redist certificate: property 'no_peak' is proved; `z3 no_peak.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x1:2, x2:2, y1:3, y2:2}
;   source f32[{x2,x1}12, {y2,y1}12]
;   all_to_all(src=1, dst=0, axes={y1})
;   collective_permute(to=f32[{y2,y1,x1}12, {x2}12])
;   all_to_all(src=0, dst=1, axes={x1})
;   target f32[{y2,y1}12, {x2,x1}12]
; 
(set-info :status unsat)
(declare-fun a1_x1 () Int)
(declare-fun a1_x2 () Int)
(declare-fun a1_y1 () Int)
(declare-fun a1_y2 () Int)
(declare-fun a1_l0 () Int)
(declare-fun a1_l1 () Int)
(declare-fun h0_lo () Int)
(declare-fun h0_hi () Int)
(declare-fun h1_lo () Int)
(declare-fun h1_hi () Int)
(declare-fun h2_lo () Int)
(declare-fun h2_hi () Int)
(declare-fun a2_x1 () Int)
(declare-fun a2_x2 () Int)
(declare-fun a2_y1 () Int)
(declare-fun a2_y2 () Int)
(declare-fun a2_l0 () Int)
(declare-fun a2_l1 () Int)
(declare-fun h3_lo () Int)
(declare-fun h3_hi () Int)
(declare-fun h4_lo () Int)
(declare-fun h4_hi () Int)
(assert
 (let (($x7 (>= a1_x1 0)))
 (and $x7 (< a1_x1 2))))
(assert
 (let (($x12 (>= a1_x2 0)))
 (and $x12 (< a1_x2 2))))
(assert
 (let (($x16 (>= a1_y1 0)))
 (and $x16 (< a1_y1 3))))
(assert
 (let (($x21 (>= a1_y2 0)))
 (and $x21 (< a1_y2 2))))
(assert
 (let (($x25 (>= a1_l0 0)))
 (and $x25 (< a1_l0 1))))
(assert
 (let (($x30 (>= a1_l1 0)))
 (and $x30 (< a1_l1 6))))
(assert
 (and (and (and (>= h0_hi 0) (< h0_hi 3)) (>= h0_lo 0)) (< h0_lo 2)))
(assert
 (= a1_l1 (+ (* h0_hi 2) h0_lo)))
(assert
 (and (and (and (>= h1_hi 0) (< h1_hi 2)) (>= h1_lo 0)) (< h1_lo 2)))
(assert
 (let ((?x53 (+ (* (+ (* a1_y2 3) a1_y1) 2) a1_x1)))
 (let ((?x54 (div ?x53 3)))
 (= ?x54 (+ (* h1_hi 2) h1_lo)))))
(assert
 (and (and (and (>= h2_hi 0) (< h2_hi 2)) (>= h2_lo 0)) (< h2_lo 3)))
(assert
 (= a1_l1 (+ (* h2_hi 3) h2_lo)))
(assert
 (let (($x98 (>= a2_x1 0)))
 (and $x98 (< a2_x1 2))))
(assert
 (let (($x103 (>= a2_x2 0)))
 (and $x103 (< a2_x2 2))))
(assert
 (let (($x107 (>= a2_y1 0)))
 (and $x107 (< a2_y1 3))))
(assert
 (let (($x111 (>= a2_y2 0)))
 (and $x111 (< a2_y2 2))))
(assert
 (let (($x115 (>= a2_l0 0)))
 (and $x115 (< a2_l0 1))))
(assert
 (let (($x119 (>= a2_l1 0)))
 (and $x119 (< a2_l1 6))))
(assert
 (and (and (and (>= h3_hi 0) (< h3_hi 2)) (>= h3_lo 0)) (< h3_lo 2)))
(assert
 (let ((?x125 (+ (* (+ (* a2_y2 3) a2_y1) 2) a2_x1)))
 (let ((?x126 (div ?x125 3)))
 (= ?x126 (+ (* h3_hi 2) h3_lo)))))
(assert
 (and (and (and (>= h4_hi 0) (< h4_hi 2)) (>= h4_lo 0)) (< h4_lo 3)))
(assert
 (= a2_l1 (+ (* h4_hi 3) h4_lo)))
(assert
 (let (($x79 (and true false)))
 (let (($x144 (= (mod (+ (* (+ (* a2_y2 3) a2_y1) 2) a2_x1) 3) a2_y1)))
 (let (($x148 (and (and (= h3_lo a2_x1)) (and (= h3_hi a2_x2)) (and $x144) (and (= a2_x2 a2_y2)))))
 (let (($x150 (and true (not $x148))))
 (let (($x169 (and $x150 $x79)))
 (let (($x72 (= (mod (+ (* (+ (* a1_y2 3) a1_y1) 2) a1_x1) 3) a1_y1)))
 (let (($x76 (and (and (= h1_lo a1_x1)) (and (= h1_hi a1_x2)) (and $x72) (and (= a1_x2 a1_y2)))))
 (let (($x80 (and true $x76)))
 (let (($x97 (and $x80 false)))
 (let (($x49 (and true (not (and (= h0_hi a1_y1))))))
 (let (($x167 (and $x49 $x97)))
 (let (($x168 (and $x49 $x79)))
 (or $x168 $x167 $x169))))))))))))))
(check-sat)
